-- The instructions of a call, from the table scripts/bench.sh --instructions filled (callgrind).
-- Variables: machine, calls.
SELECT format(E'### Instructions per call (callgrind), %s\n\n', :'machine')
    || format(E'Counted by valgrind''s callgrind in a backend of the running server, only inside ExecutorRun: '
              'one backend per query, each query at two sizes (the difference over %s rows is what one more '
              'call costs). "Over count(g)": above `SELECT count(g) FROM generate_series(1, N) AS g`, the query '
              'without a function (%s instructions a row here); "over its floor": above the C function '
              'that returns a constant of the same type. Deterministic, to an instruction or two.\n\n',
              :calls, (SELECT round(per_row::numeric) FROM bench.instructions WHERE name = 'count(g)'))
    || E'| generator | instructions over count(g) | over its floor |\n|---|---:|---:|\n'
    || string_agg(format('| %s | %s | %s |', s.name, round((i.per_row - g.per_row)::numeric),
                         coalesce(round((i.per_row - f.per_row)::numeric)::text, '')),
                  E'\n' ORDER BY s.ord) || E'\n'
FROM bench.subjects s JOIN bench.instructions i USING (name)
     JOIN bench.instructions g ON g.name = 'count(g)'
     LEFT JOIN bench.instructions f ON f.name = s.floor;

-- Public UUIDs: the façade's instructions against idgen.uuidv7()'s (the target: at most twice), and
-- against uuid47's (uuidv47's extension) where it was measured.
SELECT format(E'The façade of a UUIDv7, `idgen.public_uuid`, costs %s times the instructions of `idgen.uuidv7()` over count(g)%s.\n',
              round(((p.per_row - g.per_row) / (u.per_row - g.per_row))::numeric, 2),
              coalesce(format(', and %s times those of uuid47''s `uuid47_to_uuid` (reading it: %s times `uuid_to_uuid47`''s)',
                              round(((p.per_row - g.per_row) / (c.per_row - g.per_row))::numeric, 2),
                              round(((r.per_row - g.per_row) / (d.per_row - g.per_row))::numeric, 2)), ''))
FROM bench.instructions p JOIN bench.instructions u ON u.name = 'idgen.uuidv7()'
     JOIN bench.instructions g ON g.name = 'count(g)'
     JOIN bench.instructions r ON r.name = 'idgen.private_uuid(façade)'
     LEFT JOIN bench.instructions c ON c.name = 'uuid47_to_uuid(v7) (uuid47)'
     LEFT JOIN bench.instructions d ON d.name = 'uuid_to_uuid47(façade) (uuid47)'
WHERE p.name = 'idgen.public_uuid(v7)';
