-- +goose Up
-- GSTR-1's documents-issued table groups a period's documents by their
-- series: the number without its serial. Without statistics on that
-- expression the planner takes it to be as distinct as the numbers
-- themselves, expects one group per document, and sorts them all instead
-- of hashing the few series (a quarter's sort spilled to disk:
-- docs/SCALING.md).
CREATE STATISTICS IF NOT EXISTS tax_documents_series_stats ON (regexp_replace(number, '[0-9]+$', '')) FROM tax_documents;
ANALYZE tax_documents;

-- +goose Down
DROP STATISTICS IF EXISTS tax_documents_series_stats;
