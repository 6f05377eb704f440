/**
 * What an admin listener serves about a running {@link dev.petrel.server.Server}: its health
 * ({@link dev.petrel.server.admin.HealthCheck}) and its metrics, through a
 * {@link dev.petrel.server.admin.MetricsExporter}. These take the server they watch, so they sit
 * above it, apart from the handler API that the server is built on.
 */
package dev.petrel.server.admin;
