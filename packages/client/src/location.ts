const RECEIPT_PATH = /\/deployments\/([^/]+)\/?$/

/**
 * The deployment id named by a 202's `Location` (`/v1/deployments/{id}`, relative or absolute),
 * or undefined when the header is not such a path.
 */
export function deploymentIdFromLocation(location: string): string | undefined {
  let pathname: string
  try {
    pathname = new URL(location, 'http://location.invalid').pathname
  } catch {
    return undefined
  }
  const encoded = RECEIPT_PATH.exec(pathname)?.[1]
  if (encoded === undefined) return undefined
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}
