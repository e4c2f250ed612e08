-- The deployment that fixed an incident (`shiplog notify --fixes <incident>`): it resolves the
-- incident at its deployedAt, and counts as rework in the DORA keys.
alter table incidents add column fixed_by_deployment_id uuid references deployments (id) on delete set null;
