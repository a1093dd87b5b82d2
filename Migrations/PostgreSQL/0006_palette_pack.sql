-- Nothing to do for PostgreSQL: Migrations/0006_palette_pack.sql packs SQLite's `palette_cell` for its
-- colour search; the PostgreSQL search reads its own index (0005_palette_cell.sql). The version number
-- is kept so that both back ends list the same migrations.
SELECT 1;
