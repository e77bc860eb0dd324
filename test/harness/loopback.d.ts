export function serveJson(answer: (url: string) => string): Promise<{ url: string; close(): Promise<void> }>;
export function getText(url: string, onWritten: () => void): Promise<string>;
