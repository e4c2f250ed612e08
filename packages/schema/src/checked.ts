import type { FieldError } from './problem.ts'

/** What a validator answers: the value, checked and typed, or every failing field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] }
