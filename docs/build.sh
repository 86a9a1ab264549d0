#!/usr/bin/env bash
# Build the documentation site into docs/_build/html with warnings as errors.
# Needs the docs extra: pip install -e ".[docs]"
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
"$python" -m sphinx -W --keep-going -b html docs docs/_build/html "$@"
echo "docs built: docs/_build/html/index.html"
