-- From here on, functions, triggers and views are not written in migrations: each has one
-- current definition in packages/db/sql/, which the migrate step applies after the migrations,
-- in the same transaction (docs/database.md). Migrations keep tables, indexes and data moves.
--
-- The triggers of 0004, 0012 and 0014 ran as several triggers per event, in the alphabetical
-- order of their names; packages/db/sql/09_triggers.sql replaces them with one trigger per
-- table and event calling the same steps in the same order. This drops the old ones and the
-- functions only they called. The new ones are created before this transaction commits, so
-- writers, which wait on these locks, never write without them.
lock table deployments, deployment_commits, deployment_aliases in access exclusive mode;

drop trigger deployments_lock_commit_arrivals on deployments;
drop trigger deployments_read_model on deployments;
drop trigger deployments_refresh_dora_facts on deployments;
drop trigger deployments_voided on deployments;
drop trigger deployments_voided_dora_facts on deployments;
drop trigger deployment_commits_inserted on deployment_commits;
drop trigger deployment_commits_deleted on deployment_commits;
drop trigger deployment_aliases_dora_facts on deployment_aliases;

drop function deployments_lock_commit_arrivals();
drop function deployments_inserted();
drop function deployments_inserted_dora_facts();
drop function deployment_voided();
drop function deployment_voided_dora_facts();
drop function deployment_commits_changed();
drop function deployment_aliases_inserted();
