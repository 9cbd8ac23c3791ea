#!/usr/bin/env bash
# Builds gpubench on a GPU node and exercises it, leaving the results in OUTDIR: the check we run on real
# hardware before calling a GPU feature done. Two modes, each sized to fit one ten-minute device call:
#   scripts/gpu_verify.sh OUTDIR check              build, tests, env, doctor, Ctrl-C, MPI against one process,
#                                                   acceptance (doctor + acceptance set + 30 s stress) and its time
#   scripts/gpu_verify.sh OUTDIR runs N SECS [ARGS] up to N quick-suite runs, none started that would end past
#                                                   SECS seconds from the start (3 make a baseline); ARGS go to
#                                                   `gpubench run`; then a baseline from them and acceptance
#                                                   against it when there is time
#   scripts/gpu_verify.sh OUTDIR families           the micro-test families' GPU tests, their quick suite with two
#                                                   --gemm-shapes, and the BF16 maximum-achievable search
#   scripts/gpu_verify.sh OUTDIR depth              acceptance depth: the memory-test and stress GPU tests, doctor
#                                                   on the node, against the shipped profile and against one that
#                                                   expects 8 GPUs (must fail with that reason), acceptance and its time
#   scripts/gpu_verify.sh OUTDIR slowdown [BASELINE] a slower GPU is caught on that GPU alone: memory and the large
#                                                   BF16/FP8 GEMMs checked (--confirm 3, as nightly) against BASELINE (the
#                                                   shipped one by default) healthy, then with another process
#                                                   multiplying matrices on GPU 0 back to back (heavy), then a
#                                                   few per cent of the time (light); per GPU, what was flagged
#   scripts/gpu_verify.sh OUTDIR watch [SECS] [OVERHEAD_SECS]
#                                                   gpubench watch on the jobs of tests/watch_jobs/corpus.json: this
#                                                   node's ceilings (memory, GEMM and PCIe figures of the quick suite,
#                                                   kept in .out/ceilings.json for a later call), each job watched for
#                                                   SECS (15) with its diagnosis, its throughput and show's text; then
#                                                   watch's cost: healthy_bf16 and elementwise_bandwidth 3 times with and
#                                                   3 without watch, alternately, OVERHEAD_SECS (10) each (0 skips it).
#                                                   WATCH_JOBS="a b" watches only those; builds gpubench alone
# OUTDIR gets verify.log (everything printed) and, by mode, tests.log, doctor.json, acceptance*.json, mpi.json,
# single.json, or run1..N.json and baseline.json, or ceilings.json and watch.tar.gz (the watch documents, their
# --json and Prometheus files, show's text and CSV and report's page of each): at most eight files, as the device
# tool brings back.
set -uo pipefail
out="${1:?usage: gpu_verify.sh OUTDIR check|runs N SECS [run args...]|families|depth|slowdown|watch}"
mode="${2:-check}"
mkdir -p "$out"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo" || exit 1
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared hosts
logs="$(mktemp -d)"
exec > >(tee "$out/verify.log") 2>&1

step() { printf '\n== %s (%s s)\n' "$*" "$SECONDS"; }
family_times() {  # the seconds each family (variant) of a results document took
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  '.join('%s %.0fs' % (f['family'], f['seconds']) for f in d['families']))" "$1"
}

step "nvidia-smi"
nvidia-smi --query-gpu=index,name,pcie.link.gen.current,pcie.link.width.current,temperature.gpu,power.draw,clocks.sm --format=csv
step "build"
[ "$mode" = watch ] && export GPUBENCH_BUILD_TARGETS="gpubench gpubench-micro"
CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90-real}" ./scripts/setup.sh >"$logs/setup.log" 2>&1 || { tail -40 "$logs/setup.log"; exit 1; }
grep -E "built in" "$logs/setup.log"

case "$mode" in
  check)
    step "CPU tests in parallel, then the GPU tests in one process"
    ctest --test-dir build -LE gpu -j"$(nproc)" >"$out/tests.log" 2>&1
    grep -E "tests passed|tests failed" "$out/tests.log"
    timeout 300 ./build/tests/gpubench_gpu_tests --gtest_color=no >>"$out/tests.log" 2>&1
    echo "GPU tests exit $?"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED  \]" "$out/tests.log" | tail -15
    step "env"; ./build/gpubench env
    step "doctor"; ./build/gpubench doctor --json >"$out/doctor.json"; echo "exit $?"
    python3 -c "import json; [print(f['severity'], f['check'], f['finding']) for f in json.load(open('$out/doctor.json')) if f['severity'] != 'ok']"
    step "interrupted run keeps what finished"
    timeout -s INT 20 ./build/gpubench run --suite quick -o "$logs/interrupted.json" --log-dir "$logs/interrupted" >/dev/null 2>&1
    python3 -c "import json; d=json.load(open('$logs/interrupted.json')); print('interrupted:', d['run']['interrupted'], 'metrics:', len(d['metrics']))"
    if command -v mpirun >/dev/null && [ -x build/gpubench-mpi ] && [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
      step "MPI all-reduce, Ring/Simple, against the single-process mode"
      timeout 150 mpirun --allow-run-as-root -np 2 -x NCCL_ALGO=Ring -x NCCL_PROTO=Simple -x NCCL_NVLS_ENABLE=0 \
        ./build/gpubench-mpi --suite quick -o "$out/mpi.json" 2>&1 | tail -5
      timeout 150 ./build/gpubench run --suite quick --filter 'nccl/allreduce/ring/simple/' \
        -o "$out/single.json" --log-dir "$logs/single" >/dev/null 2>&1
      ./build/gpubench compare "$out/single.json" "$out/mpi.json" --filter 'nccl/' 2>&1 | tail -16
    fi
    step "acceptance"
    timeout 240 ./build/gpubench acceptance --json-file "$out/acceptance.json" -o "$out/acceptance-results.json" \
      --log-dir "$logs/acceptance" 2>&1 | tail -25
    family_times "$out/acceptance-results.json"
    ;;
  runs)
    count="${3:?usage: gpu_verify.sh OUTDIR runs N SECS [run args...]}"
    budget="${4:?usage: gpu_verify.sh OUTDIR runs N SECS [run args...]}"
    shift 4
    longest=0
    made=()
    for i in $(seq 1 "$count"); do
      if (( SECONDS + longest > budget )); then echo "no time for run $i (the longest took ${longest} s)"; break; fi
      step "quick suite run $i $*"
      started=$SECONDS
      ./build/gpubench run --suite quick -o "$out/run$i.json" --log-dir "$logs/run$i" "$@" 2>&1 | tail -30
      echo "exit ${PIPESTATUS[0]}, $((SECONDS - started)) s"
      family_times "$out/run$i.json"
      (( SECONDS - started > longest )) && longest=$((SECONDS - started))
      made+=("$out/run$i.json")
    done
    if (( ${#made[@]} >= 3 )); then
      step "baseline from ${#made[@]} runs, and acceptance against it"
      ./build/gpubench baseline create "${made[@]}" -o "$out/baseline.json" 2>&1 | tail -5
      # Acceptance takes the runs' GPUs but not their other arguments (a --filter or --repetitions of `run`).
      devices=()
      while (( $# > 0 )); do
        case "$1" in
          --devices) devices=(--devices "$2"); shift ;;
          --devices=*) devices=("$1") ;;
        esac
        shift
      done
      if (( SECONDS + 240 < ${CALL_LIMIT_S:-600} )); then
        timeout 240 ./build/gpubench acceptance --baseline "$out/baseline.json" -o "$logs/acceptance.json" \
          --log-dir "$logs/acceptance" "${devices[@]}" 2>&1 | tail -25
      fi
    fi
    ;;
  families)
    step "GPU tests of the families added for the micro-tests issue (cache, blocksize, overlap, alloc)"
    timeout 240 ./build/tests/gpubench_gpu_tests --gtest_color=no \
      --gtest_filter='*L2Read*:*L2ChunkRead*:*SharedRead*:*Cache*:*Blocksize*:*LaunchShape*:*Overlap*:*HashRounds*:*Alloc*:*Pool*:*LargestBlock*' \
      >"$out/tests.log" 2>&1
    echo "exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED  \]" "$out/tests.log" | tail -12
    step "their quick suite, with two GEMM shapes of a model's own"
    started=$SECONDS
    ./build/gpubench run --suite quick --filter '^(cache|blocksize|overlap|alloc|gemm/bf16/(8192x11008x4096|4096x4096x4096))/' \
      --gemm-shapes 8192,11008,4096:4096,4096,4096 -o "$out/families.json" --log-dir "$logs/families" 2>&1 | tail -40
    echo "exit ${PIPESTATUS[0]}, $((SECONDS - started)) s"
    family_times "$out/families.json"
    step "the maximum achievable BF16 matmul (full suite, one repetition)"
    timeout 200 ./build/gpubench run --suite full --repetitions 1 --filter '^gemm/max_achievable/bf16/' \
      -o "$out/max_achievable.json" --log-dir "$logs/max" 2>&1 | tail -8
    python3 -c "import json; [print(m['id'], round(m['value'], 1), m['params'].get('best_shape'), m['params'].get('finalists')) for m in json.load(open('$out/max_achievable.json'))['metrics']]"
    ;;
  depth)
    step "GPU tests of the memory test and of stress's fault injection"
    timeout 200 ./build/tests/gpubench_gpu_tests --gtest_color=no --gtest_filter='*Memtest*:*MovingInversions*:*StressOnGpu*' \
      >"$out/tests.log" 2>&1
    echo "exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|FAILED  \]|Failure" "$out/tests.log" | tail -12
    step "doctor"
    ./build/gpubench doctor --json >"$out/doctor.json"; echo "exit $?"
    ./build/gpubench doctor 2>&1 | tail -25
    step "doctor against the shipped profile, then against one that expects 8 GPUs"
    ./build/gpubench doctor --expect examples/node-profiles/nvidia-h200-x2-nv18.json 2>&1 | grep -E "inventory|exit|critical" | head -12
    python3 -c "import json; p=json.load(open('examples/node-profiles/nvidia-h200-x2-nv18.json')); p['gpu_count']=8; json.dump(p, open('$logs/eight.json','w'))"
    ./build/gpubench doctor --expect "$logs/eight.json" >"$logs/eight.out" 2>&1; echo "exit $? (1 expected)"
    grep -E "inventory" "$logs/eight.out" | head -5
    step "acceptance"
    started=$SECONDS
    timeout 240 ./build/gpubench acceptance --json-file "$out/acceptance.json" -o "$out/acceptance-results.json" \
      --log-dir "$logs/acceptance" 2>&1 | tail -25
    echo "exit ${PIPESTATUS[0]}, $((SECONDS - started)) s"
    ;;
  slowdown)
    baseline=()
    [ -n "${3:-}" ] && baseline=(--baseline "$3")
    filter='^memory/|^gemm/(bf16|fp8_e4m3)/8192x8192x8192/'
    # A competing process on GPU 0 alone: 8192^2 BF16 products back to back (heavy), or 4096^2 ones for about a
    # millisecond every 6 ms (light: GEMM about 10-15 % slower is the aim; what it cost is in the check's output).
    heavy='import torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(a)
while True:
    c = a @ b; torch.cuda.synchronize()'
    light='import torch, time
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(a)
while True:
    for _ in range(4): c = a @ b
    torch.cuda.synchronize(); time.sleep(0.005)'
    flagged() {  # what check flagged, per GPU
      python3 - "$1" <<'PY'
import json, sys
flagged = {}  # every GPU the check saw, flagged or not
for m in json.load(open(sys.argv[1]))["metrics"]:
    gpu = next((part for part in m["id"].split("/") if part.startswith("gpu")), "node")
    flagged.setdefault(gpu, [])
    if m["verdict"] in ("regression", "failed"):
        flagged[gpu].append("%s %s %+.1f %%" % (m["verdict"], m["id"], 100 * m.get("change", 0)))
for gpu in sorted(flagged): print(" ", gpu, len(flagged[gpu]), "flagged:", "; ".join(flagged[gpu]) or "-")
PY
    }
    for load in healthy heavy light; do
      step "quick-suite figures, $load"
      loader=""
      if [ "$load" != healthy ]; then
        code="$heavy"; [ "$load" = light ] && code="$light"
        CUDA_VISIBLE_DEVICES=0 python3 -c "$code" & loader=$!
        sleep 8
        nvidia-smi --query-gpu=index,utilization.gpu,clocks.sm,power.draw --format=csv,noheader
      fi
      ./build/gpubench run --suite quick --filter "$filter" -o "$out/$load.json" --log-dir "$logs/$load" >/dev/null 2>&1
      echo "run exit $?"
      ./build/gpubench check "$out/$load.json" "${baseline[@]}" --confirm 3 --json-file "$logs/$load.check.json" \
        --no-color >"$logs/$load.check" 2>&1
      echo "check exit $? (0 expected healthy, 1 under load)"; grep -E "^PASS|^FAIL" "$logs/$load.check"
      flagged "$logs/$load.check.json"
      if [ -n "$loader" ]; then kill "$loader"; wait "$loader" 2>/dev/null; fi
    done
    ;;
  watch)
    seconds="${3:-15}"
    overhead_seconds="${4:-10}"
    limit="${CALL_LIMIT_S:-600}"
    corpus=tests/watch_jobs/corpus.json
    read -r -a jobs <<<"${WATCH_JOBS:-$(python3 -c 'import json,sys; print(" ".join(j["name"] for j in json.load(open(sys.argv[1]))["jobs"]))' "$corpus")}"
    docs="$logs/watch"
    mkdir -p "$docs" .out
    python3 -c 'import torch, numpy; print("torch", torch.__version__, "CUDA", torch.version.cuda, "numpy", numpy.__version__)'
    df -h /var/tmp | tail -1
    step "this node's ceilings: memory, GEMM and PCIe figures of the quick suite"
    if [ ! -s .out/ceilings.json ]; then
      started=$SECONDS
      ./build/gpubench run --suite quick --filter '^(memory|gemm|pcie)/' -o .out/ceilings.json \
        --log-dir "$logs/ceilings" >"$logs/ceilings.out" 2>&1
      echo "exit $?, $((SECONDS - started)) s"
    fi
    ceilings=(--ceilings .out/ceilings.json)  # without them, watch finds this node kind's shipped baseline
    [ -s .out/ceilings.json ] || { ceilings=(); tail -5 "$logs/ceilings.out"; }
    throughput() { sed -n 's/^throughput \([^ ]*\) .*/\1/p' "$1" | tail -1; }
    for job in "${jobs[@]}"; do
      if (( SECONDS + seconds + 25 > limit )); then echo "no time for $job"; continue; fi
      read -r -a args <<<"$(python3 -c 'import json,sys; print(" ".join(next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["name"] == sys.argv[2])["args"]))' "$corpus" "$job")"
      step "watch $job: ${args[*]} ($seconds s)"
      ./build/gpubench watch --no-color "${ceilings[@]}" -o "$docs/$job.json" \
        -- python3 "tests/watch_jobs/${args[0]}" "${args[@]:1}" --seconds "$seconds" >"$docs/$job.out" 2>"$docs/$job.err"
      echo "exit $?; the job's $(grep -E '^(throughput|source|reading) ' "$docs/$job.out" | paste -sd ';' || echo 'throughput: none printed')"
      python3 - "$docs/$job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d.get("diagnosis", []):
    fired = ["%s%s" % (f["rule"], " (%s)" % f["cause"] if f.get("cause") else "") for f in g["findings"]
             if f["outcome"] == "fired"]
    print("  GPU %d fired: %s; %s" % (g["gpu"], ", ".join(fired) or "none (%s)" % g["summary"],
                                      g.get("steady_part", {}).get("why", "")))
    for f in g["findings"]:
        if f["outcome"] == "fired":
            print("    %s: %s" % (f["rule"], f["evidence"][:600]))
h = d.get("host", [])
if h:
    waits = {}
    for s in h:
        for k, n in s.get("threads", {}).get("waits", {}).items():
            waits[k] = waits.get(k, 0) + n
    print("  host: cores %s; waits %s" % (sorted(round(s["cpu_cores"], 2) for s in h)[len(h) // 2], waits))
PY
      ./build/gpubench show "$docs/$job.json" >"$docs/show-$job.txt" 2>&1 || echo "show exit $?"
    done
    for job in healthy_bf16 elementwise_bandwidth; do
      (( overhead_seconds > 0 )) || break
      step "watch's cost on $job: 3 runs with and 3 without, alternately, $overhead_seconds s each"
      : >"$logs/overhead-$job.txt"
      for round in 1 2 3; do
        order="without with"; (( round == 2 )) && order="with without"
        for how in $order; do
          if (( SECONDS + overhead_seconds + 15 > limit )); then echo "no time for round $round $how"; continue; fi
          if [ "$how" = with ]; then
            ./build/gpubench watch --no-color "${ceilings[@]}" -o "$logs/overhead-$job-$round.json" \
              -- python3 "tests/watch_jobs/$job.py" --seconds "$overhead_seconds" >"$logs/run.out" 2>/dev/null
          else
            python3 "tests/watch_jobs/$job.py" --seconds "$overhead_seconds" >"$logs/run.out" 2>/dev/null
          fi
          value="$(throughput "$logs/run.out")"
          echo "round $round $how watch: $(grep -E '^throughput ' "$logs/run.out")"
          [ -n "$value" ] && echo "$how $value" >>"$logs/overhead-$job.txt"
        done
      done
      python3 - "$logs/overhead-$job.txt" <<'PY'
import statistics, sys
runs = {"with": [], "without": []}
for line in open(sys.argv[1]):
    how, value = line.split()
    runs[how].append(float(value))
if runs["with"] and runs["without"]:
    ratio = statistics.mean(runs["with"]) / statistics.mean(runs["without"])
    print("  with watch %s, without %s: mean ratio %.4f (%+.2f %%)" % (runs["with"], runs["without"], ratio,
                                                                        100 * (ratio - 1)))
PY
    done
    cp .out/ceilings.json "$docs/ceilings.json" 2>/dev/null
    tar -czf "$out/watch.tar.gz" -C "$logs" watch && echo "watch.tar.gz: $(tar -tzf "$out/watch.tar.gz" | wc -l) files"
    ;;
  *) echo "unknown mode '$mode' (check, runs, families, depth, slowdown or watch)"; exit 2 ;;
esac
step "done"
