/**
 * Turns a lab run's {@link dev.petrel.bench.model.RunResults} into files a reader can use: CSV for
 * tools, {@code report.md} for the repository, {@code index.html} for a browser, and SVG charts for
 * both. {@link dev.petrel.bench.report.ReportWriter} is the entry point; every other class here is
 * package-private and does one step.
 *
 * <p>The flow: {@code Aggregation} summarizes samples and computes ratios once; {@code Tables}
 * and {@code Charts} turn that into table and chart models; {@code Outline} arranges them into one
 * document, which {@code MarkdownReport} and {@code HtmlReport} both render, so the two files show
 * the same content.
 */
package dev.petrel.bench.report;
