-- The overview marks a cell whose newest deployment was voided (it shows the one before): the
-- few voided deployments of a workspace, found without reading its deployments.
create index deployments_voided on deployments (workspace_id) where voided_at is not null;
