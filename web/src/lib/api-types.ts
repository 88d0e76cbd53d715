/**
 * The API's types, taken from the OpenAPI document the gateway serves: `api-schema.d.ts` is
 * generated from gateway/openapi.json by openapi-typescript (`./deploy/openapi.sh`; CI's
 * `npm run api:check` fails when it drifts). The features' api files alias these and never
 * restate a schema; where the app needs a field narrower than the document says, the alias says so.
 */
import type { components, paths } from './api-schema';

/** Every schema of the document, by name (`Schemas['Booking']`). */
export type Schemas = components['schemas'];

/** The query parameters of a GET path (`Query<'/coaches/search/nearby'>`). */
export type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/**
 * Every field present, null where the schema allows null: the gateway serialises every field of
 * an answer (it never omits one), and the forms send every field of a body.
 */
export type Complete<T> = { [K in keyof T]-?: T[K] };

/**
 * A closed set of values: the document's enum once it declares one; while it still says
 * `string`, the values the app knows.
 */
export type Closed<Documented, Known extends string> = string extends Documented ? Known : Documented;
