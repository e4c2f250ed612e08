import ts from 'typescript'
import { REPO } from './manifests.ts'

// The virtual module sits in infra/test, so its imports resolve from infra's node_modules.
const MODULE = `${REPO}infra/test/typecheck.generated.ts`
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
}

/**
 * Type-checks a TypeScript module held in memory and returns its errors, each with the line it
 * is on. Values written as object literals get excess-property checks, so a misspelt field of a
 * manifest or dashboard is an error, not an ignored extra.
 */
export function typeErrors(source: string): string[] {
  const host = ts.createCompilerHost(OPTIONS)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (file, language, ...rest) =>
    file === MODULE
      ? ts.createSourceFile(file, source, language, true)
      : read(file, language, ...rest)
  const program = ts.createProgram([MODULE], OPTIONS, host)
  const module = program.getSourceFile(MODULE)
  const lines = source.split('\n')
  return ts.getPreEmitDiagnostics(program, module).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (diagnostic.file === undefined || diagnostic.start === undefined) return message
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    return `line ${line + 1} (${lines[line]?.trim()}): ${message}`
  })
}
