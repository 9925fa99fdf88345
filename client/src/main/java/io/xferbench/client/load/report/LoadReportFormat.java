package io.xferbench.client.load.report;

/** How a load report is written: an aligned table, JSON or CSV. */
public enum LoadReportFormat { TABLE, JSON, CSV }
