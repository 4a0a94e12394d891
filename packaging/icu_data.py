"""Qt's ICU data library for the frozen app, trimmed to what GearDyn's windows can use (packaging/geardyn.spec).

PySide6's Qt ships ICU's whole data (libicudata.so.<N>, 31 MB): the collation, display names and number
formats of every locale, about 200 legacy character-set converters and the transliterators. Qt takes from ICU
the collation of QCollator (the file dialogs' sort order), case mapping and its text codecs; its own locale
tables, line breaking and time zones do not come from ICU's data. The copy made here keeps the root and English
locale data (collation, break rules with their dictionaries, the CLDR supplemental tables, normalisation and
character names) and drops the other locales' bundles, the table-driven converters (Shift-JIS, windows-1252 and
the like: Qt keeps UTF-8/16/32, Latin-1 and ASCII, which ICU computes) and the transliterators. What changes for
a user: a file dialog sorts in the root collation order (Swedish å after z, for example, becomes å beside a).

The data is the library's one exported symbol (icudt<N>_dat), an ICU common-data package: it is cut out of the
library, ICU's own packaging tool removes the items (`icupkg -r`, Debian's icu-devtools), and the package is
linked into a shared library of the same name and symbol.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

#: locale bundles kept: ICU's root and English (en, en_GB, ...); the language is what the app's text is in
KEPT_LOCALES = re.compile(r"root|en(_\w*)?")
LOCALE = re.compile(r"[a-z]{2,3}(_\w*)?")


def dropped(item: str) -> bool:
    """Whether the package item `item` (for example ``coll/de.res``) is left out."""
    folder, _, name = item.rpartition("/")
    stem, _, kind = name.rpartition(".")
    if kind == "cnv" or folder == "translit":
        return True
    locale = kind == "res" and stem != "res_index" and LOCALE.fullmatch(stem)  # res_index: the locales' list
    return bool(locale) and not KEPT_LOCALES.fullmatch(stem)


def data_symbol(library: Path) -> tuple[str, int, int]:
    """The data symbol of an ICU data `library`: its name and its offset and size in the file [bytes]."""
    symbols = subprocess.run(["readelf", "--dyn-syms", "-W", str(library)], capture_output=True, text=True,
                             check=True).stdout
    found = re.search(r":\s+([0-9a-f]+)\s+(\w+)\s+OBJECT\s+GLOBAL\s+\w+\s+(\d+)\s+(icudt\d+_dat)$", symbols, re.M)
    if not found:
        raise RuntimeError(f"{library}: no ICU data symbol (icudt<N>_dat)")
    address, size, section, name = int(found[1], 16), int(found[2], 0), int(found[3]), found[4]
    sections = subprocess.run(["readelf", "-S", "-W", str(library)], capture_output=True, text=True,
                              check=True).stdout
    row = re.search(rf"\[\s*{section}\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", sections)
    return name, address - int(row[1], 16) + int(row[2], 16), size


def trimmed(library: Path, work: Path) -> Path:
    """A copy of ICU data `library` (libicudata.so.<N>) without the dropped items, made in folder `work`."""
    symbol, offset, size = data_symbol(library)
    package = symbol.removesuffix("_dat") + "l"  # icudt73l: the package name ICU looks for (l: little-endian)
    work.mkdir(parents=True, exist_ok=True)
    whole, small = work / "whole" / f"{package}.dat", work / "small" / f"{package}.dat"
    for folder in (whole.parent, small.parent):
        folder.mkdir(exist_ok=True)
    with open(library, "rb") as src:
        src.seek(offset)
        whole.write_bytes(src.read(size))
    items = subprocess.run(["icupkg", "-l", str(whole)], capture_output=True, text=True, check=True).stdout.split()
    (work / "dropped.txt").write_text("\n".join(item for item in items if dropped(item)) + "\n")
    # icupkg names the items after the output file, which is why it carries the package's own name
    subprocess.run(["icupkg", "-r", str(work / "dropped.txt"), str(whole), str(small)], check=True)
    source = work / "icudata.S"
    source.write_text(f"""    .section .rodata
    .globl {symbol}
    .type {symbol}, @object
    .balign 16
{symbol}:
    .incbin "{small}"
    .size {symbol}, . - {symbol}
    .section .note.GNU-stack,"",@progbits
""")
    out = work / library.name
    subprocess.run(["gcc", "-shared", "-nostdlib", f"-Wl,-soname,{library.name}", "-o", str(out), str(source)],
                   check=True)
    return out
