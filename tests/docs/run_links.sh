#!/usr/bin/env bash
# Every relative link in README.md and docs/**/*.md resolves: the file or folder exists, and an #anchor
# into a markdown file names one of its headings (tests/docs/check_links.py). A broken link fails the
# test with FILE:LINE. $1 (the ldgsm binary, as ctest passes it to every shell test) is not used.
exec python3 "$(dirname "$0")/check_links.py" "$(cd "$(dirname "$0")/../.." && pwd)"
