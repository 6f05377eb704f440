/**
 * Real front ends for tests and the benchmark lab: a private Apache httpd started from the
 * system's packages in a temporary folder, with its own ports, pid file and logs.
 */
package dev.petrel.testkit;
