-- A delivery's body is JSON, which is UTF-8 text: kept as text, a receiver sends it as one text
-- parameter of a multi-row insert, where bytes went through an array of base64 strings that
-- postgres.js escaped and Postgres decoded, the receivers' costliest step (docs/benchmarks.md,
-- receivers). The signature was checked on the bytes before they became text.
alter table integration_deliveries alter column body type text using convert_from(body, 'UTF8');
-- Compressed with LZ4, not the default pglz: a body is kilobytes of JSON, and pglz compressing
-- it took half the time a group of deliveries took to store (25 ms for 100 against 13.5). A
-- Postgres built without LZ4 (the embedded one of `bun run dev` and the tests) keeps pglz.
do $$
begin
  alter table integration_deliveries alter column body set compression lz4;
exception when feature_not_supported then
  null;
end
$$;
