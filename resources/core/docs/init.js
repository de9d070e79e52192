// Starts Swagger UI on the service's generated OpenAPI document (a file, so the page needs no inline script).
/* global SwaggerUIBundle */
window.addEventListener('load', function () {
  SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
  });
});
