#!/usr/bin/env bash
# Line coverage of the numba kernels' Python bodies (src/wargrid/_kernels, all of it).
#
# With NUMBA_DISABLE_JIT=1 every @jit function runs as plain Python, so
# coverage.py can see its lines. This runs a small sample of the tests on tiny
# boards that calls every kernel (a couple of minutes without the JIT) and
# reports the kernels' line coverage. It installs nothing: the Python it runs
# (PYTHON, default python3) needs wargrid's test extra and `coverage`.
#
#   scripts/kernel_coverage.sh            # summary per kernel file
#   scripts/kernel_coverage.sh -m         # also the missing line numbers
#
# Hypothesis runs derandomized (CI=1), so the figure is the same on every run.
# The bit-scan JPS search is left out: it uses numba intrinsics
# (leading_zeros / trailing_zeros) that have no plain-Python form.
set -uo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
report_opts=("$@")
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT

export NUMBA_DISABLE_JIT=1 CI=1
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
export COVERAGE_FILE="$data/.coverage"

"$python" -m coverage run --source=src/wargrid/_kernels -m pytest -q -p no:cacheprovider -m "not slow" \
  --deselect "tests/movement/test_jps_jump_table.py::test_both_searches_are_optimal[bit-scan]" \
  --deselect "tests/movement/test_jps_jump_table.py::test_large_boards_scan_bits_instead_of_a_table" \
  tests/movement/test_astar.py tests/movement/test_fields.py tests/movement/test_paths_batch.py \
  tests/movement/test_path_without_units.py tests/movement/test_specialised_kernels_agree.py \
  tests/movement/test_zoc_turns.py tests/movement/test_jps.py tests/movement/test_jps_jump_table.py \
  tests/movement/test_zones.py tests/movement/test_zone_labels_match_flood_fill.py \
  tests/sight/test_square_fov.py tests/sight/test_hex_fov.py tests/sight/test_fog.py tests/sight/test_polygon.py \
  tests/tactics tests/territory \
  tests/rts/test_classic.py tests/rts/test_ladder.py tests/rts/test_occupancy.py tests/rts/test_sim.py \
  src/wargrid/_kernels src/wargrid/movement src/wargrid/sight src/wargrid/tactics src/wargrid/territory \
  src/wargrid/rts
status=$?
"$python" -m coverage report "${report_opts[@]}"
exit "$status"
