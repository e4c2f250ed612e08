-- What each API key may do (packages/schema/src/scopes.ts). Existing keys keep what every key
-- could do until now: record deployments and read.
alter table api_keys
  add column scopes text[] not null default '{deployments:write,read}'
    check (cardinality(scopes) > 0
           and scopes <@ '{deployments:write,incidents:write,read,admin}'::text[]);
