ALTER TABLE "catalog_snapshots" ALTER COLUMN "data" SET DATA TYPE json USING "data"::json;
