#!/usr/bin/env bash
# Soak every element on every backend with cf-soak (docs/reliability.md, "Soak")
# and write one markdown table. From the repository root:
#   BUILD=build pipelines/soak-all.sh
# Environment:
#   CF_SOAK_FRAMES       frames per row (default 10000)
#   CF_SOAK_BACKENDS     default "cpu openmp cuda"
#   CF_SOAK_MEMORY       default "system"; "system cuda" adds memory:CUDAMemory
#                        rows (cudaupload ! ... ! cudadownload) for backend=cuda
#   CF_SOAK_JOBS         serial-cpu rows run this many at a time (default: nproc)
#   CF_SOAK_OMP_JOBS     openmp rows run this many at a time (default 1) with
#   CF_SOAK_OMP_THREADS  threads each (default: nproc / CF_SOAK_OMP_JOBS);
#                        cuda rows run one at a time
#   CF_SOAK_LANES        "together": the cpu, openmp and cuda rows run side by
#                        side (default: one backend after the other)
#   CF_SOAK_ELEMENTS     a regular expression on "backend/memory chain"
#                        (e.g. "^cpu/system cudadct$"): only rows matching it
#   CF_SOAK_MAX_SECONDS  per row: stop early (the row says so); default none
#   CF_SOAK_SIZE         default 1920x1080
#   CF_SOAK_OUT          the table (default ${OUT:-.}/soak.md)
# Rows that cannot run here (cuda without a GPU) say so and are skipped.
set -uo pipefail
build=${BUILD:-build}
soak=$build/pipelines/cf-soak
[ -x "$soak" ] || { echo "no $soak: build first" >&2; exit 1; }
[ -f .gstbundle/env.sh ] && source .gstbundle/env.sh  # the GPU machine's GStreamer
export GST_PLUGIN_PATH=$PWD/$build/gst CF_TEST_IMAGES=${CF_TEST_IMAGES:-$PWD/.testimages}
export CF_SOAK_FRAMES=${CF_SOAK_FRAMES:-10000} OMP_WAIT_POLICY=PASSIVE
backends=${CF_SOAK_BACKENDS:-cpu openmp cuda}
memories=${CF_SOAK_MEMORY:-system}
jobs=${CF_SOAK_JOBS:-$(nproc)}
filter=${CF_SOAK_ELEMENTS:-.}
size=${CF_SOAK_SIZE:-1920x1080}
out=${CF_SOAK_OUT:-${OUT:-.}/soak.md}
max=()
[ -n "${CF_SOAK_MAX_SECONDS:-}" ] && max=(--max-seconds "$CF_SOAK_MAX_SECONDS")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# chain | input format (the colour transforms take RGB)
chains="cudahaar levels=3|I420
cudacdf53 levels=3|I420
cudacdf97 levels=3|I420
cudadct|I420
cudarct|RGB
cudaycocg|RGB
cudamed|I420
cudagap|I420
cudaged|I420
cudacdf53 levels=3 ! cudainverse|I420
cudagap ! cudainverse|I420
cudaycocg ! cudacdf53 levels=3 ! cudainverse|RGB
cudaentropy|I420
cudahalftone|I420
cudahough|I420
cudacdf53 levels=3 ! cudaview|I420"

# One row: index backend memory chain format -> $tmp/<index>.row
run_row() {
  local i=$1 backend=$2 memory=$3 chain=$4 format=$5
  # Each process its own registry file: parallel rows never race on one.
  GST_REGISTRY_1_0=$tmp/registry-$i.bin "$soak" --chain "$chain" --backend "$backend" --memory "$memory" \
    --format "$format" --size "$size" "${max[@]}" >"$tmp/$i.row" 2>"$tmp/$i.err"
  local rc=$?
  grep -q '^|' "$tmp/$i.row" || echo "| \`$chain\` | $backend | $memory | $format | $size | 0 | | | | | | | | crashed or failed (exit $rc): $(tail -1 "$tmp/$i.err" | tr '|' '/') |" >"$tmp/$i.row"
  echo "$(date +%T) $backend/$memory $chain: $(cut -d'|' -f15 "$tmp/$i.row")" >&2
  cat "$tmp/$i.row" >&2  # the whole row in the log too, should the table never be written
}

# The rows, in table order: index|backend|memory|chain|format.
i=0
rows=()
for backend in $backends; do
  for memory in $memories; do
    [ "$memory" = cuda ] && [ "$backend" != cuda ] && continue
    while IFS='|' read -r chain format; do
      [[ "$backend/$memory $chain" =~ $filter ]] || continue
      i=$((i + 1))
      rows+=("$i|$backend|$memory|$chain|$format")
    done <<<"$chains"
  done
done

# One backend's rows, `at_once` at a time.
run_lane() {
  local lane=$1 at_once=$2 row n backend memory chain format
  for row in "${rows[@]}"; do
    IFS='|' read -r n backend memory chain format <<<"$row"
    [ "$backend" = "$lane" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n; done
    run_row "$n" "$backend" "$memory" "$chain" "$format" &
  done
  wait
  echo "$(date +%T) lane $lane finished" >&2
}

start=$(date +%s)
# cuda rows one at a time: GPU memory is read device-wide. openmp rows
# share the cores (OMP_NUM_THREADS each). cpu and openmp rows never touch the
# GPU, so with CF_SOAK_LANES=together the three lanes run side by side.
omp_jobs=${CF_SOAK_OMP_JOBS:-1}
export OMP_NUM_THREADS=${CF_SOAK_OMP_THREADS:-$(( $(nproc) / omp_jobs ))}
for lane in cpu openmp cuda; do
  [ "$lane" = cpu ] && at_once=$jobs || { [ "$lane" = openmp ] && at_once=$omp_jobs || at_once=1; }
  if [ "${CF_SOAK_LANES:-one-by-one}" = together ]; then
    run_lane $lane $at_once &
  else
    run_lane $lane $at_once
  fi
done
wait
{
  echo "Soak: $CF_SOAK_FRAMES frames of $size per row ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc --all) cores, GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true))."
  echo "Growth = (end - after the first 100 frames); flat = host RSS within 8 MB and GPU memory within 4 MB."
  echo
  "$soak" --header
  for n in $(seq 1 $i); do cat "$tmp/$n.row"; done
} >"$out"
echo "wrote $out ($i rows, $(( $(date +%s) - start )) s)" >&2
