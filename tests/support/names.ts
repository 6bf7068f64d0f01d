/** Where the integration tests create their PostgreSQL databases (trust auth, user postgres). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** Every database a test run creates is named `band_test_<run id>_<random>`. */
export const TEST_DATABASE_PREFIX = 'band_test_'

/** Every temporary folder a test run creates is named `band-test-<run id>-<random>`. */
export const TEMP_PREFIX = 'band-test-'
