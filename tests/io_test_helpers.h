// Helpers for the reader tests: small files in a scratch directory, reading and
// overwriting them whole, and checks on the one-line matsamp::Error a reader throws.
#pragma once
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "graph/graph.h"

namespace matsamp::testing {

// Everything a reader gives back: structure, weights, vertex and edge features, labels.
inline void expect_same_graph(const Graph& got, const Graph& want) {
  EXPECT_EQ(got.adj, want.adj);
  EXPECT_EQ(got.feature_dim, want.feature_dim);
  EXPECT_EQ(got.features, want.features);
  EXPECT_EQ(got.edge_feature_dim, want.edge_feature_dim);
  EXPECT_EQ(got.edge_features, want.edge_features);
  EXPECT_EQ(got.labels, want.labels);
}

inline std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The whole file as bytes.
inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Replaces the file's contents with `bytes`.
inline void overwrite(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Success when fn throws a matsamp::Error whose message is one line containing every part.
template <class Fn>
::testing::AssertionResult throws_error_with(Fn&& fn, std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const Error& e) {
    const std::string message = e.what();
    if (message.find('\n') != std::string::npos)
      return ::testing::AssertionFailure() << "message spans lines: " << message;
    for (const std::string& part : parts)
      if (message.find(part) == std::string::npos)
        return ::testing::AssertionFailure() << "message lacks \"" << part << "\": " << message;
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no matsamp::Error thrown";
}

}  // namespace matsamp::testing
