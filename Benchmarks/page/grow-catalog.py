"""Grows a small real catalog into a large one for the page benchmark: every ok entry of SOURCE is
copied again and again (new ids, distinct SHA-256s, the same sticker PNG, palette and EXIF) until
the catalog holds COUNT entries. The stickers are real PNGs, so the browser decodes real images.

    python3 grow-catalog.py SOURCE.sqlite DEST.sqlite COUNT

A benchmark fixture only: the product writes catalogs through `catalog` itself.
"""
import hashlib
import shutil
import sqlite3
import sys

source, dest, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.copyfile(source, dest)
db = sqlite3.connect(dest)
db.execute("PRAGMA journal_mode=WAL")
originals = [row[0] for row in db.execute("SELECT id FROM photo WHERE status = 'ok' ORDER BY id")]
total = db.execute("SELECT count(*) FROM photo").fetchone()[0]
if not originals:
    sys.exit("no ok entry to copy in " + source)
columns = lambda table: [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
photo_cols = [c for c in columns("photo") if c not in ("id", "sha256")]
exif_cols = [c for c in columns("exif") if c != "photo_id"]
sticker_cols = [c for c in columns("sticker") if c != "photo_id"]
made = 0
while total < count:
    with db:
        for _ in range(min(5000, count - total)):
            original = originals[made % len(originals)]
            sha = hashlib.sha256(f"page-bench-{made}".encode()).hexdigest()
            cur = db.execute(
                f"INSERT INTO photo (sha256, {', '.join(photo_cols)}) SELECT ?, {', '.join(photo_cols)} FROM photo WHERE id = ?",
                (sha, original))
            new = cur.lastrowid
            db.execute(f"INSERT INTO exif (photo_id, {', '.join(exif_cols)}) SELECT ?, {', '.join(exif_cols)} FROM exif WHERE photo_id = ?", (new, original))
            db.execute(f"INSERT INTO sticker (photo_id, {', '.join(sticker_cols)}) SELECT ?, {', '.join(sticker_cols)} FROM sticker WHERE photo_id = ?", (new, original))
            db.execute("INSERT INTO sticker_png (photo_id, png) SELECT ?, png FROM sticker_png WHERE photo_id = ?", (new, original))
            db.execute("INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) SELECT ?, rank, hex, l, a, b, share FROM palette_color WHERE photo_id = ?", (new, original))
            made += 1
            total += 1
    print(f"{total} entries", file=sys.stderr, end="\r")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(f"{dest}: {total} entries", file=sys.stderr)
