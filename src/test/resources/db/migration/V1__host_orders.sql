-- A host application's own first migration, at Flyway's default location: HostApplicationMigrationsTest migrates it
-- beside a Redrive namespace in the same database.
CREATE TABLE orders (
    id     bigserial PRIMARY KEY,
    amount numeric   NOT NULL
);
