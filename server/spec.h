/* GET /spec: the Swagger 2.0 (OpenAPI 2) description of exactly the routes
 * and parameters nmt serve answers, as LibreTranslate serves its own. */
#ifndef SERVER_SPEC_H
#define SERVER_SPEC_H

extern const char server_spec_json[];

#endif
