-- +goose Up
-- One row per applied bulk inventory job, written in the job's transaction:
-- a job run again (a retry after its commit, a crashed worker) finds its row
-- and does not add or subtract twice. Reconcile removes rows older than 30 days.
CREATE TABLE bulk_inventory_jobs (
    job_id     text PRIMARY KEY,
    result     jsonb NOT NULL DEFAULT '{}',
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE bulk_inventory_jobs;
