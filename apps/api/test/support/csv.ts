/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF) into rows of fields, for tests. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"'
        index++
      } else if (character === '"') quoted = false
      else field += character
    } else if (character === '"') quoted = true
    else if (character === ',') {
      row.push(field)
      field = ''
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      index++
    } else field += character
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}

/** CSV rows as objects keyed by the header line's names; empty fields as null. */
export function csvRecords(text: string): Record<string, string | null>[] {
  const [header = [], ...rows] = parseCsv(text)
  return rows.map((row) =>
    Object.fromEntries(
      header.map((name, index) => [name, row[index] === '' ? null : (row[index] ?? null)]),
    ),
  )
}
