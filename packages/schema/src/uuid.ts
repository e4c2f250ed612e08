/** A UUID in its canonical text form (RFC 9562): 8-4-4-4-12 hexadecimal digits. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
