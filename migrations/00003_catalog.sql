-- +goose Up
CREATE TABLE customer_groups (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL UNIQUE,
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE categories (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL,
    description text NOT NULL DEFAULT '',
    slug        text NOT NULL UNIQUE,
    parent_id   uuid REFERENCES categories (id) ON DELETE RESTRICT,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE INDEX categories_parent_idx ON categories (parent_id);

CREATE TABLE products (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    title            text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
    slug             text NOT NULL UNIQUE,
    description      text NOT NULL DEFAULT '',
    price            bigint NOT NULL CHECK (price > 0),
    compare_at_price bigint CHECK (compare_at_price IS NULL OR compare_at_price >= price),
    gst_rate         integer NOT NULL DEFAULT 0 CHECK (gst_rate IN (0, 25, 300, 500, 1200, 1800, 2800)),
    hsn_code         text NOT NULL DEFAULT '' CHECK (hsn_code = '' OR hsn_code ~ '^([0-9]{4}|[0-9]{6}|[0-9]{8})$'),
    status           text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'archived')),
    category_id      uuid REFERENCES categories (id) ON DELETE RESTRICT,
    -- rating summary of published reviews, kept by the review service
    rating_count     integer NOT NULL DEFAULT 0,
    rating_total     integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    -- title and description folded (lower case, no accents), kept by
    -- Postgres: searches match it with LIKE shop_fold(pattern). Stored, so a
    -- trigram recheck or a scan compares text instead of running unaccent
    -- per row (10x faster counts on a 100k catalog; docs/DECISIONS.md).
    search_text      text GENERATED ALWAYS AS (shop_fold(title || ' ' || description)) STORED
);
CREATE INDEX products_status_created_idx ON products (status, created_at DESC, id DESC);
CREATE INDEX products_category_idx ON products (category_id, status, created_at DESC);
CREATE INDEX products_created_idx ON products (created_at DESC, id DESC);
-- case- and accent-insensitive substring search on title and description:
-- search_text LIKE shop_fold('%term%') (admin list, storefront browse)
CREATE INDEX products_search_text_idx ON products USING gin (search_text gin_trgm_ops);

-- customerGroupOverrides: a product price per customer group
CREATE TABLE product_group_prices (
    product_id        uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    customer_group_id uuid NOT NULL REFERENCES customer_groups (id) ON DELETE CASCADE,
    price             bigint NOT NULL CHECK (price > 0),
    PRIMARY KEY (product_id, customer_group_id)
);

CREATE TABLE variants (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    product_id          uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    sku                 text NOT NULL UNIQUE CHECK (char_length(sku) BETWEEN 1 AND 64),
    -- NULL: the product price applies
    price               bigint CHECK (price IS NULL OR price > 0),
    -- on hand; available = inventory - reserved - committed
    inventory           integer NOT NULL DEFAULT 0 CHECK (inventory >= 0),
    reserved            integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    committed           integer NOT NULL DEFAULT 0 CHECK (committed >= 0),
    low_stock_threshold integer CHECK (low_stock_threshold IS NULL OR low_stock_threshold >= 0),
    size                text NOT NULL DEFAULT '',
    color               text NOT NULL DEFAULT '',
    weight              numeric(12, 3) CHECK (weight IS NULL OR weight >= 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT variants_committed_within_inventory CHECK (committed <= inventory)
);
CREATE INDEX variants_product_idx ON variants (product_id, created_at);

CREATE TABLE collections (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL,
    slug        text NOT NULL UNIQUE,
    description text NOT NULL DEFAULT '',
    image_url   text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE collection_products (
    collection_id uuid NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    product_id    uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, product_id)
);
CREATE INDEX collection_products_product_idx ON collection_products (product_id);

CREATE TABLE price_lists (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name              text NOT NULL,
    description       text NOT NULL DEFAULT '',
    customer_group_id uuid NOT NULL REFERENCES customer_groups (id) ON DELETE CASCADE,
    is_active         boolean NOT NULL DEFAULT true,
    priority          integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX price_lists_group_idx ON price_lists (customer_group_id, is_active, priority DESC);

CREATE TABLE price_list_rules (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    price_list_id    uuid NOT NULL REFERENCES price_lists (id) ON DELETE CASCADE,
    variant_id       uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    price            bigint NOT NULL CHECK (price > 0),
    compare_at_price bigint CHECK (compare_at_price IS NULL OR compare_at_price >= price),
    UNIQUE (price_list_id, variant_id)
);
CREATE INDEX price_list_rules_variant_idx ON price_list_rules (variant_id);

CREATE TABLE discounts (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- stored upper case; NULL only for AUTOMATIC discounts
    code                 text UNIQUE CHECK (code IS NULL OR code = upper(code)),
    description          text NOT NULL DEFAULT '',
    type                 text NOT NULL CHECK (type IN ('PERCENTAGE', 'FIXED_AMOUNT')),
    -- PERCENTAGE: hundredths of a percent (1250 = 12.5 %); FIXED_AMOUNT: paise
    value                bigint NOT NULL CHECK (value > 0),
    application_type     text NOT NULL DEFAULT 'MANUAL' CHECK (application_type IN ('MANUAL', 'AUTOMATIC')),
    scope                text NOT NULL DEFAULT 'ORDER' CHECK (scope IN ('ORDER', 'PRODUCT')),
    min_order_amount     bigint NOT NULL DEFAULT 0 CHECK (min_order_amount >= 0),
    usage_limit          integer CHECK (usage_limit IS NULL OR usage_limit > 0),
    customer_usage_limit integer CHECK (customer_usage_limit IS NULL OR customer_usage_limit > 0),
    usage_count          integer NOT NULL DEFAULT 0 CHECK (usage_count >= 0),
    start_date           timestamptz,
    end_date             timestamptz,
    is_active            boolean NOT NULL DEFAULT true,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CHECK (type <> 'PERCENTAGE' OR value <= 10000),
    CHECK (application_type <> 'MANUAL' OR code IS NOT NULL),
    CHECK (start_date IS NULL OR end_date IS NULL OR start_date < end_date)
);

CREATE TABLE discount_products (
    discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
    product_id  uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    PRIMARY KEY (discount_id, product_id)
);

CREATE TABLE discount_categories (
    discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
    category_id uuid NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    PRIMARY KEY (discount_id, category_id)
);

CREATE TABLE bundles (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    title               text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
    description         text NOT NULL DEFAULT '',
    is_active           boolean NOT NULL DEFAULT true,
    allow_mix_and_match boolean NOT NULL DEFAULT false,
    -- bundle price = sum of the selected items' effective prices less this
    -- percentage (hundredths of a percent)
    discount_percent    bigint NOT NULL DEFAULT 0 CHECK (discount_percent BETWEEN 0 AND 10000),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE bundle_sets (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    bundle_id    uuid NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
    title        text NOT NULL,
    description  text NOT NULL DEFAULT '',
    min_quantity integer NOT NULL DEFAULT 1 CHECK (min_quantity >= 0),
    max_quantity integer NOT NULL DEFAULT 1 CHECK (max_quantity >= 1),
    sort_order   integer NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (min_quantity <= max_quantity)
);
CREATE INDEX bundle_sets_bundle_idx ON bundle_sets (bundle_id, sort_order);

CREATE TABLE bundle_set_items (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    set_id     uuid NOT NULL REFERENCES bundle_sets (id) ON DELETE CASCADE,
    variant_id uuid NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    quantity   integer NOT NULL DEFAULT 1 CHECK (quantity >= 1),
    is_default boolean NOT NULL DEFAULT false,
    sort_order integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (set_id, variant_id)
);

-- +goose Down
DROP TABLE bundle_set_items;
DROP TABLE bundle_sets;
DROP TABLE bundles;
DROP TABLE discount_categories;
DROP TABLE discount_products;
DROP TABLE discounts;
DROP TABLE price_list_rules;
DROP TABLE price_lists;
DROP TABLE collection_products;
DROP TABLE collections;
DROP TABLE variants;
DROP TABLE product_group_prices;
DROP TABLE products;
DROP TABLE categories;
DROP TABLE customer_groups;
