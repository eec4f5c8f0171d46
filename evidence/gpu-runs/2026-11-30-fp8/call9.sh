#!/bin/bash
# Issue #28, thirty-first session, ninth call, after the closing review: mend = the committed fp8 kernel with
# fp8_shared_tables_fit's twin test (index_bits > 8 beside the table's words against kFp8SharedTableWords, the same
# condition) removed, which moved the fp8 kernel's .text alone (mend.cubin: the build of the mended tree,
# build/generated/resident_sm_90a.cubin). (1) the eight fp8 forms, the committed build's own cubin (fin) against mend,
# fin mend mend fin; (2) gpu_resident_test on mend's cubin (MMASP_RESIDENT_CUBIN_FILE); (3) the mended build's mmasp
# selftest --faults --cases 300 --threads 16. One tgz back. From the repository root with gpu-carry20/g carried
# (all.tar.xz: rbn, 8a82099's resident_benchmark, its gpu_resident_test, mend.cubin, mmasp-mend, the modules).
set -u
G=$PWD/gpu-carry20/g
(cd $G && xz -d -c all.tar.xz | tar x && chmod +x rbn gpu_resident_test mmasp-mend) || exit 1
T=/tmp/t9 && rm -rf $T && mkdir -p $T
exec > >(tee -a "$T/call9.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
run() {  # pass kernel
  s=$(date +%s)
  image=""; [ "$2" = mend ] && image="--image-file $G/mend.cubin"
  $G/rbn $image --form m16n8k64.row.col.f32.e --host-cases 0 --seconds 0.15 > $T/fp8-$1-$2.txt 2>&1
  echo "fp8 $1-$2: exit $? in $(( $(date +%s) - s )) s; $(grep -c NOT $T/fp8-$1-$2.txt) not measured; $(grep -c DEVIATIONS $T/fp8-$1-$2.txt) with deviations; $(grep 'SM clock' $T/fp8-$1-$2.txt | cut -c1-70)"
}
run 0 fin; run 1 fin; run 1 mend; run 2 mend; run 2 fin
s=$(date +%s)
MMASP_RESIDENT_CUBIN_FILE=$G/mend.cubin timeout 60 $G/gpu_resident_test --gtest_filter='*cubin*' > $T/gpu_resident_test9-mend.txt 2>&1
echo "gpu_resident_test (mend's cubin): exit $? in $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|Failure" $T/gpu_resident_test9-mend.txt | head
s=$(date +%s)
timeout 130 $G/mmasp-mend selftest --faults --cases 300 --threads 16 > $T/selftest9.txt 2>&1
echo "selftest --faults: exit $? in $(( $(date +%s) - s )) s"; tail -2 $T/selftest9.txt
tar czf $OUT/tables9.tgz -C $T .
