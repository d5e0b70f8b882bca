-- CreateTable
CREATE TABLE "catalog_versions" (
    "merchant_id" TEXT NOT NULL,
    "version" UUID NOT NULL,

    CONSTRAINT "catalog_versions_pkey" PRIMARY KEY ("merchant_id")
);

-- Every merchant with products starts at a version of its own.
INSERT INTO "catalog_versions" ("merchant_id", "version")
SELECT m."merchant_id", gen_random_uuid() FROM (SELECT DISTINCT "merchant_id" FROM "products") AS m;

-- A new version for each merchant whose rows a statement changed (`changed_rows`: the statement's
-- transition table). One statement-level trigger per table and event: an import of 200,000
-- products bumps a merchant once per statement, not once per row.
CREATE FUNCTION "catalog_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalog_versions" ("merchant_id", "version")
  SELECT m."merchant_id", gen_random_uuid() FROM (SELECT DISTINCT "merchant_id" FROM changed_rows) AS m
  ON CONFLICT ("merchant_id") DO UPDATE SET "version" = EXCLUDED."version";
  RETURN NULL;
END $$;

-- Updates bump only when something but the stock changed: a sale (quantity) must not make every
-- replica's snapshot stale, nor make completions of one merchant wait on one row. Stock is read
-- afresh whenever a snapshot is used.
CREATE FUNCTION "catalog_version_bump_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalog_versions" ("merchant_id", "version")
  SELECT m."merchant_id", gen_random_uuid() FROM (
    SELECT DISTINCT n."merchant_id" FROM changed_rows AS n JOIN old_rows AS o ON o."merchant_id" = n."merchant_id" AND o."id" = n."id"
    WHERE (n."title", n."description", n."vendor", n."category", n."price", n."currency", n."tags", n."attributes", n."embedding", n."embedding_model")
      IS DISTINCT FROM (o."title", o."description", o."vendor", o."category", o."price", o."currency", o."tags", o."attributes", o."embedding", o."embedding_model")
    UNION SELECT n."merchant_id" FROM changed_rows AS n LEFT JOIN old_rows AS o ON o."merchant_id" = n."merchant_id" AND o."id" = n."id" WHERE o."id" IS NULL
  ) AS m
  ON CONFLICT ("merchant_id") DO UPDATE SET "version" = EXCLUDED."version";
  RETURN NULL;
END $$;

CREATE FUNCTION "catalog_version_bump_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalog_versions" ("merchant_id", "version")
  SELECT m."merchant_id", gen_random_uuid() FROM (
    SELECT DISTINCT n."merchant_id" FROM changed_rows AS n JOIN old_rows AS o ON o."merchant_id" = n."merchant_id" AND o."sku" = n."sku"
    WHERE (n."product_id", n."position", n."title", n."price", n."currency", n."requires_shipping", n."taxable", n."weight_grams", n."weight_unit", n."attributes")
      IS DISTINCT FROM (o."product_id", o."position", o."title", o."price", o."currency", o."requires_shipping", o."taxable", o."weight_grams", o."weight_unit", o."attributes")
    UNION SELECT n."merchant_id" FROM changed_rows AS n LEFT JOIN old_rows AS o ON o."merchant_id" = n."merchant_id" AND o."sku" = n."sku" WHERE o."sku" IS NULL
  ) AS m
  ON CONFLICT ("merchant_id") DO UPDATE SET "version" = EXCLUDED."version";
  RETURN NULL;
END $$;

CREATE TRIGGER "products_catalog_version_insert" AFTER INSERT ON "products" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "products_catalog_version_delete" AFTER DELETE ON "products" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "products_catalog_version_update" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump_products"();
CREATE TRIGGER "variants_catalog_version_insert" AFTER INSERT ON "variants" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "variants_catalog_version_delete" AFTER DELETE ON "variants" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "variants_catalog_version_update" AFTER UPDATE ON "variants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump_variants"();
CREATE TRIGGER "images_catalog_version_insert" AFTER INSERT ON "images" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "images_catalog_version_delete" AFTER DELETE ON "images" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
CREATE TRIGGER "images_catalog_version_update" AFTER UPDATE ON "images" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalog_version_bump"();
