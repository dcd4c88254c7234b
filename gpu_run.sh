python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
timeout 250 python -m pytest -q -m gpu tests/test_gpu.py tests/test_codegen_snapshots.py 2>&1 | tail -6
timeout 300 python benchmarks/bench_ce.py --shapes 16384x128256 4096x151936 32768x32000 --no-dynamic --no-memory --no-ref --only ours/ stock/compile --out $OUT --name ce-metrics 2>&1 | grep -E "^\|" 
