#!/usr/bin/env bash
# Fails, listing the files, when clang-format (Google style, .clang-format)
# would change any C or C++ file tracked in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
  echo "clang-format not found; ./scripts/install-deps.sh installs it" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.cc' '*.h' '*.inc')
else
  mapfile -t files < <(find . -path ./build -prune -o -type f \
    \( -name '*.c' -o -name '*.cc' -o -name '*.h' -o -name '*.inc' \) -print)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "== format: no C or C++ files tracked" >&2
  exit 1
fi
if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/pjrtx-format.$$; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/pjrtx-format.$$ | cut -d: -f1 |
    sort -u | sed 's/^/  needs clang-format: /' >&2
  rm -f /tmp/pjrtx-format.$$
  echo "== format: files differ from clang-format; run" \
       "clang-format -i on them" >&2
  exit 1
fi
rm -f /tmp/pjrtx-format.$$
echo "== format: ${#files[@]} files as clang-format writes them"
