/**
 * n8n's node-cli formatter settings (tabs, single quotes, trailing commas), with a wider line:
 * this code base was written to about 160 columns, and 100 would re-wrap a third of it.
 * `npm run format` writes, `npm run format:check` (part of `npm run lint`) checks.
 */
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 160,
};
