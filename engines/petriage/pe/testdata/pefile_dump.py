# Oracle for the PE dissector's tests and benchmark: what python3-pefile reads from each file, as JSON lines.
# Usage: pefile_dump.py dump FILE...         one JSON object per file
#        pefile_dump.py imphash FILE...      one import hash per line ('-' when pefile cannot parse the file)
#        pefile_dump.py bench ROUNDS FILE... parse + imphash every file ROUNDS times, and more rounds until
#                                            PEFILE_BENCH_MIN_SECONDS of CPU time have passed; prints the files
#                                            parsed and the elapsed wall and CPU seconds
#        pefile_dump.py cold FILE...         one pass of parse + imphash in this fresh process; prints the CPU seconds
#                                            of the interpreter's start, of importing pefile and of the pass
import time

BOOT_CPU = time.process_time()  # the interpreter's start, before any import of this script's

import json
import os
import sys

import pefile

LOADED_CPU = time.process_time()


def text(b):
    if b is None:
        return None
    return b.decode("latin-1") if isinstance(b, (bytes, bytearray)) else str(b)


def imports(entries):
    out = []
    for entry in entries or []:
        out.append({
            "dll": text(entry.dll),
            "symbols": [
                {
                    "name": None if imp.import_by_ordinal else text(imp.name),
                    "ordinal": imp.ordinal if imp.import_by_ordinal else None,
                }
                for imp in entry.imports
            ],
        })
    return out


def dump(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        pe = pefile.PE(data=data)
    except pefile.PEFormatError as e:
        return {"file": path, "ok": False, "error": str(e)}
    overlay = pe.get_overlay_data_start_offset()
    exports = None
    if hasattr(pe, "DIRECTORY_ENTRY_EXPORT"):
        exports = {
            "dll_name": text(pe.DIRECTORY_ENTRY_EXPORT.name),
            "symbols": [
                {"ordinal": s.ordinal, "name": text(s.name), "forwarder": text(s.forwarder), "rva": s.address}
                for s in pe.DIRECTORY_ENTRY_EXPORT.symbols
            ],
        }
    result = {
        "file": path,
        "ok": True,
        "format": "PE32+" if pe.PE_TYPE == pefile.OPTIONAL_HEADER_MAGIC_PE_PLUS else "PE32",
        "entry_point": pe.OPTIONAL_HEADER.AddressOfEntryPoint,
        "image_base": hex(pe.OPTIONAL_HEADER.ImageBase),
        "checksum": pe.OPTIONAL_HEADER.CheckSum,
        "num_data_directories": len(pe.OPTIONAL_HEADER.DATA_DIRECTORY),
        "sections": [
            {
                "name": text(s.Name.rstrip(b"\x00")),
                "virtual_address": s.VirtualAddress,
                "virtual_size": s.Misc_VirtualSize,
                "raw_offset": s.PointerToRawData,
                "raw_size": s.SizeOfRawData,
                "entropy": s.get_entropy(),
            }
            for s in pe.sections
        ],
        "imports": imports(getattr(pe, "DIRECTORY_ENTRY_IMPORT", None)),
        "delay_imports": imports(getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", None)),
        "exports": exports,
        "imphash": pe.get_imphash(),
        "overlay": None if overlay is None else {"offset": overlay, "size": len(data) - overlay},
        "tls": hasattr(pe, "DIRECTORY_ENTRY_TLS"),
        "debug_entries": len(getattr(pe, "DIRECTORY_ENTRY_DEBUG", []) or []),
        "version_strings": {
            text(k): v.decode("utf-8", "replace")
            for fi in getattr(pe, "FileInfo", [])
            for entry in fi
            for st in getattr(entry, "StringTable", [])
            for k, v in st.entries.items()
        },
    }
    # Last: generate_checksum() replaces pefile's data with its own serialisation, which later reads would see.
    result["checksum_computed"] = pe.generate_checksum()
    return result


def main(argv):
    if len(argv) >= 2 and argv[1] == "dump":
        for path in argv[2:]:
            print(json.dumps(dump(path)))
        return 0
    if len(argv) >= 2 and argv[1] == "imphash":
        for path in argv[2:]:
            try:
                with open(path, "rb") as f:
                    print(pefile.PE(data=f.read()).get_imphash())
            except pefile.PEFormatError:
                print("-")
        return 0
    if len(argv) >= 3 and argv[1] == "bench":
        rounds = int(argv[2])
        blobs = []
        for path in argv[3:]:
            with open(path, "rb") as f:
                blobs.append(f.read())
        min_seconds = float(os.environ.get("PEFILE_BENCH_MIN_SECONDS", "0"))
        start = time.perf_counter()
        cpu = time.process_time()
        parsed = 0
        done = 0
        while done < rounds or time.process_time() - cpu < min_seconds:
            for data in blobs:
                try:
                    pefile.PE(data=data).get_imphash()
                except pefile.PEFormatError:
                    pass
                parsed += 1
            done += 1
        print(json.dumps({
            "files": parsed,
            "rounds": done,
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu,
            "version": pefile.__version__,
        }))
        return 0
    if len(argv) >= 2 and argv[1] == "cold":
        blobs = []
        for path in argv[2:]:
            with open(path, "rb") as f:
                blobs.append(f.read())
        start = time.perf_counter()
        cpu = time.process_time()
        for data in blobs:
            try:
                pefile.PE(data=data).get_imphash()
            except pefile.PEFormatError:
                pass
        print(json.dumps({
            "files": len(blobs),
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu,
            "boot_cpu_seconds": BOOT_CPU,
            "load_cpu_seconds": LOADED_CPU - BOOT_CPU,
            "version": pefile.__version__,
        }))
        return 0
    sys.stderr.write("usage: pefile_dump.py dump FILE... | imphash FILE... | bench ROUNDS FILE... | cold FILE...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
