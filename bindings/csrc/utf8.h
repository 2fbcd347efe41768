// Error text for Python, which decodes it as UTF-8: a message quoting bytes of
// a broken input file would otherwise reach the user as an empty RuntimeError.
#pragma once
#include <string>

namespace matsamp::bindings {

// `text` with each byte that is not part of well-formed UTF-8 written as "\xNN".
std::string valid_utf8(const std::string& text);

}  // namespace matsamp::bindings
