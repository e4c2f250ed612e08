-- The scope `environments:write` (issue 29): setting environments' place in the pipeline and their
-- production mark, which the operator role holds, no longer needs `admin`. The list of scopes a
-- key may hold is a constraint (0006), so it is replaced; existing keys are unchanged.
alter table api_keys
  drop constraint api_keys_scopes_check,
  add constraint api_keys_scopes_check
    check (cardinality(scopes) > 0
           and scopes <@ '{deployments:write,incidents:write,environments:write,read,admin}'::text[]);
