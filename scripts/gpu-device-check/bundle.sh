#!/usr/bin/env bash
# Prepares the GPU execution check for a machine that has a GPU and a
# driver but no MLIR (the device machines AMLS is checked on): compiles
# every test/GPU/*.dml program ahead of time for --target=gpu with
# amls-translate, links it with driver.cpp, records its CPU output
# (amls-run) as the oracle, and copies the runtime libraries beside them.
# Usage: bundle.sh OUT_DIR [CHIP] (run from the repository root; BUILD_DIR
# defaults to build). On the GPU machine: OUT_DIR/run.sh.
set -euo pipefail
out=$1
chip=${2:-sm_90}
build=${BUILD_DIR:-build}
llvm=/usr/lib/llvm-22
here=$(dirname "$0")
rm -rf "$out"
mkdir -p "$out"
root=$PWD
translate=$(realpath "$build/bin/amls-translate")
"$llvm/bin/clang++" -O2 -std=c++17 -Iinclude -DAMLS_DRIVER_GPU -c \
  "$here/driver.cpp" -o "$out/driver-gpu.o"
"$llvm/bin/clang++" -O2 -std=c++17 -Iinclude -c "$here/driver.cpp" \
  -o "$out/driver-cpu.o"
# Each program twice: for the GPU, and for the CPU (timed against it).
# A program with test/GPU/Inputs/<name>.py reads $X: that script writes
# the matrix beside the programs (the binaries read it from their
# directory, where run.sh runs them).
for source in test/GPU/*.dml bench/gpu/*.dml; do
  name=$(basename "$source" .dml)
  inputs=test/GPU/Inputs/${name//-/_}.py
  args=() run_args=()
  if [ -f "$inputs" ]; then
    /usr/bin/python3 "$inputs" "$out/$name.mtx" >/dev/null
    args=(--dml-arg="X=$name.mtx")
    run_args=(--arg "X=$out/$name.mtx")
  fi
  for target in gpu cpu; do
    binary=$name$([ $target = cpu ] && echo -cpu || true)
    # Imported in OUT_DIR: a matrix named there is read at compile time
    # (its sizes) and by the binary at run time, both relative to it.
    (cd "$out" && "$translate" --import-dml "${args[@]}" "$root/$source") |
      "$build/bin/amls-translate" --amls-to-llvmir --amls-target=$target \
        --amls-gpu-chip="$chip" --amls-gpu-format=fatbin --amls-threads=16 \
        >"$out/$binary.ll"
    # The script's entry is `main`; the driver's main calls it.
    sed -i 's/^define void @main()/define void @amls_program()/' \
      "$out/$binary.ll"
    "$llvm/bin/clang" -O2 -c "$out/$binary.ll" -o "$out/$binary.o" \
      -Wno-override-module
    "$llvm/bin/clang++" "$out/driver-$target.o" "$out/$binary.o" \
      -o "$out/$binary" -L"$build/lib" -L"$llvm/lib" -Wl,--no-as-needed \
      -lamls_runtime -lamls_cuda_runtime -lomp -Wl,--as-needed \
      -Wl,-rpath,'$ORIGIN'
    rm "$out/$binary.ll" "$out/$binary.o"
  done
  "$build/bin/amls-run" --threads=2 "$source" "${run_args[@]}" \
    >"$out/$name.expected"
done
rm "$out"/driver-*.o
cp -L "$build/lib/libamls_runtime.so" "$build/lib/libamls_cuda_runtime.so" \
  "$llvm/lib/libomp.so.5" \
  /usr/lib/x86_64-linux-gnu/libopenblas.so.0 \
  /usr/lib/x86_64-linux-gnu/libgfortran.so.5 \
  /usr/lib/x86_64-linux-gnu/libquadmath.so.0 "$out/"
cp "$here/compare.py" "$here/torch_peer.py" \
  "$here/../../test/Oracles/comparison.py" "$out/"
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs every bundled program on the GPU and compares it with its CPU run.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
failed=0
for expected in *.expected; do
  name=${expected%.expected}
  echo "== $name"
  ./"$name" >"$name.actual" 2>"$name.log"
  status=$?
  if [ $status -ne 0 ]; then
    echo "  FAILED (exit status $status):"; cat "$name.log"; failed=1; continue
  fi
  grep amls-gpu-driver "$name.log" | sed 's/^/  /'
  python3 compare.py "$expected" "$name.actual" || failed=1
  # The same program on the CPU (16 threads), for the times: the whole
  # program's (end to end, the driver lines) and its TIME lines.
  ./"$name-cpu" >"$name.cpu" 2>"$name.cpu.log"
  grep amls-cpu-driver "$name.cpu.log" | sed 's/^/  /'
  sed 's/^TIME/  gpu:/' "$name.actual" | grep '^  gpu:'
  sed 's/^TIME/  cpu:/' "$name.cpu" | grep '^  cpu:'
  if [ "$name" = spmv ] && python3 -c "import torch" 2>/dev/null; then
    python3 torch_peer.py
  fi
done
exit $failed
RUN
chmod +x "$out/run.sh"
