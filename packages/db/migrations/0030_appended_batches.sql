-- refresh_dora_facts takes the batch's streams as they were before it (lock_cells_of), and
-- dora_facts_of the previous commits its caller knows: a deployment appended to its stream is
-- typed from its cell instead of a walk of the stream's index (07_dora_facts.sql). Their argument
-- lists change, which `create or replace` refuses; the files of sql/ create the new ones.
drop function if exists refresh_dora_facts(uuid[], uuid[], text[]);
drop function if exists dora_facts_of(uuid[]);
