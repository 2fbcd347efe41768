#!/usr/bin/env bash
# Formats the tracked C++/CUDA sources (*.h *.cpp *.cu *.cuh) with clang-format
# and the repository's .clang-format.
#   bash scripts/format.sh           reformats them in place
#   bash scripts/format.sh --check   changes nothing; lists each file that is not
#                                    formatted, then a summary; exits 1 if any
# CLANG_FORMAT picks the binary (default clang-format). Other versions than the
# one .clang-format was tuned with (14, Debian 12) may format a few lines differently.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
  *) echo "usage: bash scripts/format.sh [--check]" >&2; exit 2 ;;
esac
clang_format=${CLANG_FORMAT:-clang-format}
command -v "$clang_format" >/dev/null || { echo "format: $clang_format not found (bash scripts/install-deps.sh --ci)" >&2; exit 2; }
version=$("$clang_format" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
[ "$version" = 14 ] || echo "format: note: $clang_format is version ${version:-?}; .clang-format was tuned with 14" >&2

files=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] && files+=("$f")   # skips tracked files deleted in the work tree
done < <(git ls-files -z -- '*.h' '*.cpp' '*.cu' '*.cuh')
[ ${#files[@]} -gt 0 ] || { echo "format: no tracked sources" >&2; exit 2; }

if [ "$check" -eq 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 16 "$clang_format" -i --style=file
  echo "format: formatted ${#files[@]} files"
  exit 0
fi

bad=0
for f in "${files[@]}"; do
  if ! "$clang_format" --style=file "$f" | cmp -s - "$f"; then
    echo "$f"
    bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "format: $bad of ${#files[@]} files are not formatted (bash scripts/format.sh fixes them)"
  exit 1
fi
echo "format: all ${#files[@]} files are formatted"
