package io.xferbench.server.loop;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.InfoAnswer;

/**
 * What an event-loop connection serves with and never changes: its model's name (in logs), the server's settings,
 * data directory, measurement windows and INFO answer, and the connection's id in measurement windows.
 */
record EventLoopSetting(String model, ServerConfig config, DataDirectory data, Measurements measurements, InfoAnswer info, int id) {
}
