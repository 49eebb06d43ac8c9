import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
/** A compiler factory as Fastify calls it: per set of shared schemas, then per route schema. */
type Build<F> = (externalSchemas: unknown, options: unknown) => (route: unknown) => F;

// Fastify's own default compilers (its dependencies), resolved from where Fastify is and
// loaded (with Ajv and fast-json-stringify) when the first schema is compiled.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** `make()` once, at the first call of the function it returns. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/**
 * Fastify's default validator and serializer compilers (Ajv, fast-json-stringify), each
 * route's schema compiled at its first use instead of at start: most routes are not called
 * in a process's first seconds, and compiling all of them (and creating Ajv) was a quarter of
 * the start-up time and much of the heap it left behind (docs/decisions.md "Start-up"). The
 * compiled functions are exactly the defaults'; only the moment changes. A schema error
 * therefore shows at the route's first request rather than at start (the tests call every
 * route).
 */
export function lazyCompilers(): Factories {
  const validators = once(() => (fromFastify('@fastify/ajv-compiler') as () => Build<Validate>)());
  const serializers = once(() =>
    (fromFastify('@fastify/fast-json-stringify-compiler') as () => Build<Serialize>)(),
  );
  const buildValidator: Build<Validate> = (externalSchemas, options) => {
    const compiler = once(() => validators()(externalSchemas, options));
    return (route) => {
      const get = once(() => compiler()(route));
      const validate: Validate = (data, context) => get()(data, context);
      // Fastify reads `errors` after a failed call and `schemaEnv` before each call.
      Object.defineProperties(validate, {
        errors: { get: () => get().errors },
        schemaEnv: { get: () => get().schemaEnv },
      });
      return validate;
    };
  };
  const buildSerializer: Build<Serialize> = (externalSchemas, options) => {
    const compiler = once(() => serializers()(externalSchemas, options));
    return (route) => {
      const get = once(() => compiler()(route));
      return (data) => get()(data);
    };
  };
  // The same functions as Fastify's own types describe them (Ajv's, fast-json-stringify's).
  return { buildValidator, buildSerializer } as unknown as Factories;
}
