/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 60000,
	setupFilesAfterEnv: ['<rootDir>/test/restore-nock.js', '<rootDir>/test/harness/contract-setup.js'],
	maxWorkers: 2,
};
