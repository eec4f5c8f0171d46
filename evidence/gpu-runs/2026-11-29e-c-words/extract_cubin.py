# The largest sm_90 cubin (ELF, e_machine 190) inside a binary, written to OUT; with a third argument, a copy of the
# binary with that cubin zeroed (so that a benchmark run with --image-file carries no second copy).
#   python3 extract_cubin.py BINARY OUT.cubin [ZEROED_BINARY]
import sys, struct
data = open(sys.argv[1], 'rb').read()
i = 0; found = []
while True:
    i = data.find(b'\x7fELF', i + 1)
    if i < 0: break
    if data[i+4] != 2: continue
    e_machine = struct.unpack_from('<H', data, i + 18)[0]
    if e_machine != 190: continue
    # The file ends with whichever comes last: the section headers, or the program headers (nvcc's cubins put
    # these after the section headers: a size from the section headers alone cut them off, and nvdisasm then
    # refused the file as an invalid ELF file, as on the device in call3).
    phoff = struct.unpack_from('<Q', data, i + 0x20)[0]
    shoff = struct.unpack_from('<Q', data, i + 0x28)[0]
    phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', data, i + 0x36)
    size = max(shoff + shentsize * shnum, phoff + phentsize * phnum)
    found.append((i, size))
print(found, file=sys.stderr)
i, size = max(found, key=lambda x: x[1])
open(sys.argv[2], 'wb').write(data[i:i+size])
if len(sys.argv) > 3:  # zero it in a copy of the binary
    d = bytearray(data); d[i:i+size] = bytes(size); open(sys.argv[3], 'wb').write(d)
