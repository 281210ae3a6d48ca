#!/usr/bin/env bash
# Build the C search core with its C-level test under AddressSanitizer and
# UndefinedBehaviorSanitizer (warnings are errors) and run it; non-zero exit on any
# failure. Usage: bash tests/c/run_sanitizers.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
csrc="$root/solver/engine/csrc"
cc="${CC:-cc}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
sources=()
for f in "$csrc"/*.c; do
    case "$(basename "$f")" in
        module.c|test_*.c) ;;  # the Python binding needs Python; tests are added below
        *) sources+=("$f") ;;
    esac
done
"$cc" -std=c11 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Werror -I"$csrc" \
    "${sources[@]}" "$here/test_core.c" -o "$out/test_core"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 "$out/test_core"
