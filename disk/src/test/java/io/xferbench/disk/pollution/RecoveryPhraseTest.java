package io.xferbench.disk.pollution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** bench-pollution's progress line printed the recovery as a raw double: "recovered after 6.823743819 s". */
class RecoveryPhraseTest {
    @Test
    void recoveryIsGivenToTheHundredthOfASecond() {
        assertEquals("after 6.82 s", PollutionScenario.recoveryPhrase(6.823743819));
        assertEquals("after 0.25 s", PollutionScenario.recoveryPhrase(0.250486827));
        assertEquals("not within the cap", PollutionScenario.recoveryPhrase(null));
    }
}
