#!/bin/bash
# Issue #28, thirteenth session (an H100): whether one 64-bit shift (PTX shr.b64 of value << 32 by m, its low word)
# aligns a product as the left shift, right shift and OR it replaces do, for m 0..79 on 1,024 values each
# (main.cu's check), and the SASS of both ways (shift.cu's old_way and new_way). Build here, run there:
#   nvcc -arch=sm_90a -O3 -o shiftcheck main.cu && nvcc -cubin -arch=sm_90a -O3 -o shift.cubin shift.cu
# Printed on the H100 (driver 580.159.04): "check: no error, 0 bad of 81920"; old_way aligns with IADD3, IADD3,
# SHF.L.U32, SHF.R.U32.HI, LOP3.LUT; new_way with IADD3, SHF.R.U64.
set -u
./shiftcheck
for f in old_way new_way; do echo "== $f"; cuobjdump -sass -fun $f shift.cubin | grep -E "SHF|LOP|IADD|IMAD"; done
