export function unsupportedNode(version: string, engines: string): string | undefined;
