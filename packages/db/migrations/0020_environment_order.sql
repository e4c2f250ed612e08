-- Environments in pipeline order, production marked (issue 29). Both stay null until someone sets
-- them (PUT /v1/environments/{name}, `shiplog environments set`); until then the documented rule
-- of @shiplog/schema (environment-order.ts) orders and marks an environment by its name, so an
-- environment created later still finds its place.
alter table environments
  add column position integer check (position between 0 and 1000),
  add column production boolean;
