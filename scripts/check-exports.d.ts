/** See check-exports.js. */
export function checkExports(packageDir: string, distDir?: string): Promise<string[]>;
