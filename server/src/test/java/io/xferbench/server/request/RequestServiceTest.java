package io.xferbench.server.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decisions every model shares, without a server: what the executors are handed. */
class RequestServiceTest {
    private static final RequestService THREADS = new RequestService(new RequestRules("s3cret", 1000, 2000, "platform", true));
    private static final RequestService LOOPS = new RequestService(new RequestRules("", 1000, 2000, "netty-epoll", false));

    @Test
    void aWrongTokenIsRefusedAndEndsTheConnection() {
        Request r = new Request(Op.STAT, "", "f", "wrong", 0, 0, 0, 0);
        assertThat(THREADS.decide(r)).isEqualTo(new Plan.Refusal(Status.FORBIDDEN, "missing or wrong token", true));
        assertThat(THREADS.decide(new Request(Op.STAT, "", "f", "s3cret", 0, 0, 0, 0))).isInstanceOf(Plan.Files.class);
    }

    @Test
    void anUnknownDownloadMethodIsRefusedWithTheKnownOnesAndTheConnectionGoesOn() {
        Plan plan = LOOPS.decide(Request.download("no-such", 10, 0, 0));
        assertThat(plan).isInstanceOfSatisfying(Plan.Refusal.class, r -> {
            assertThat(r.status()).isEqualTo(Status.BAD_REQUEST);
            assertThat(r.message()).startsWith("unknown download method 'no-such' (known: ").contains("transfer-to");
            assertThat(r.endsConnection()).isFalse();
        });
    }

    @Test
    void aLoopMethodIsRefusedOnThreadsAndPlannedOnLoops() {
        Request r = new Request(Op.DOWNLOAD, "netty-buffer", "", "s3cret", 10, 0, Flags.CACHE_WARM, 0);
        assertThat(THREADS.decide(r)).isInstanceOfSatisfying(Plan.Refusal.class, refusal -> {
            assertThat(refusal.status()).isEqualTo(Status.UNAVAILABLE);
            assertThat(refusal.message()).startsWith("netty-buffer: sends from a Netty event loop, and this server's --io-model platform");
        });
        assertThat(LOOPS.decide(r)).isInstanceOfSatisfying(Plan.Download.class, d -> {
            assertThat(d.method().id()).isEqualTo("netty-buffer");
            assertThat(d.inlineCache()).isTrue();
        });
    }

    @Test
    void aDownloadIsAnsweredByTheChosenSenderOfTheMethodLookedUpAndChecked() {
        java.util.List<String> asked = new java.util.ArrayList<>();
        SenderMethod chosen = DownloadMethods.byId("sendfile").orElseThrow();
        RequestService service = new RequestService(new RequestRules("", 1000, 2000, "platform", true), (method, name) -> {
            asked.add(method.id() + " " + name);
            return chosen;
        });
        assertThat(service.decide(Request.download("transfer-to", 10, 0, 0).withName("f")))
                .isInstanceOfSatisfying(Plan.Download.class, d -> assertThat(d.method()).isSameAs(chosen));
        assertThat(service.decide(new HttpRequest("GET", "/g", Map.of("method", "mmap"), Map.of(), true)))
                .isInstanceOfSatisfying(HttpPlan.Get.class, g -> assertThat(g.method()).isSameAs(chosen));
        // A refused method is never chosen: the refusal is decided on the method looked up.
        assertThat(service.decide(Request.download("netty-buffer", 10, 0, 0))).isInstanceOf(Plan.Refusal.class);
        assertThat(service.decide(Request.download("no-such", 10, 0, 0))).isInstanceOf(Plan.Refusal.class);
        assertThat(asked).containsExactly("transfer-to f", "mmap g");
    }

    @Test
    void uploadLimitsAndProxyAreDecidedAlike() {
        assertThat(LOOPS.decide(Request.upload("stream", "", 10, 0, 0, 0)))
                .isEqualTo(new Plan.Refusal(Status.BAD_REQUEST, "an upload needs the name of the file to create", false));
        assertThat(LOOPS.decide(Request.upload("stream", "f", 2001, 0, 0, 0)))
                .isEqualTo(new Plan.Refusal(Status.TOO_LARGE, "an upload of 2001 bytes exceeds --max-upload 2000", false));
        assertThat(LOOPS.decide(Request.proxy("splice", 0))).isInstanceOfSatisfying(Plan.Refusal.class,
                r -> assertThat(r.endsConnection()).isTrue());
        assertThat(LOOPS.generatedTooLarge(Request.download("transfer-to", 1001, 0, 0)).getMessage())
                .isEqualTo("generated files are limited to 1000 bytes");
    }

    @Test
    void httpRefusalsAndDefaultsByModel() {
        HttpRequest post = new HttpRequest("POST", "/f", Map.of(), Map.of(), true);
        assertThat(LOOPS.decide(post)).isInstanceOfSatisfying(HttpPlan.Refusal.class, r -> {
            assertThat(r.status()).isEqualTo(405);
            assertThat(r.extraHeaders()).isEqualTo("Allow: GET, HEAD\r\n");
        });
        HttpRequest get = new HttpRequest("GET", "/f", Map.of(), Map.of(), true);
        assertThat(THREADS.decide(get)).isEqualTo(new HttpPlan.Refusal(403, "missing or wrong token (Authorization: Bearer TOKEN)", ""));
        assertThat(LOOPS.decide(get)).isInstanceOfSatisfying(HttpPlan.Get.class, g -> {
            assertThat(g.name()).isEqualTo("f");
            assertThat(g.method().id()).isEqualTo(RequestService.HTTP_DEFAULT_ON_LOOPS);
        });
        HttpRequest authorized = new HttpRequest("HEAD", "/f", Map.of(), Map.of("authorization", "Bearer s3cret"), true);
        assertThat(THREADS.decide(authorized)).isInstanceOfSatisfying(HttpPlan.Get.class, g -> {
            assertThat(g.head()).isTrue();
            assertThat(g.method().id()).isEqualTo(RequestService.HTTP_DEFAULT_ON_THREADS);
        });
    }

    @Test
    void theTokenIsCheckedBeforeTheOperation() {
        // A PROXY without the token hears the token's refusal, not that this is no proxy.
        assertThat(THREADS.decide(Request.proxy("splice", 0))).isEqualTo(new Plan.Refusal(Status.FORBIDDEN, "missing or wrong token", true));
    }

    @Test
    void anUnknownMethodIsToldBeforeALoopOnlyOneWhichIsToldBeforeAnUnavailableOne() {
        assertThat(THREADS.decide(new Request(Op.DOWNLOAD, "no-such", "", "s3cret", 10, 0, 0, 0)))
                .isInstanceOfSatisfying(Plan.Refusal.class, r -> assertThat(r.status()).isEqualTo(Status.BAD_REQUEST));
        SenderMethod unavailableLoopMethod = unavailable(DownloadMethods.byId("netty-buffer").orElseThrow());
        assertThat(THREADS.onThreads(unavailableLoopMethod)).isInstanceOfSatisfying(Plan.Refusal.class, r -> {
            assertThat(r.status()).isEqualTo(Status.UNAVAILABLE);
            assertThat(r.message()).startsWith("netty-buffer: sends from a Netty event loop");
        });
        assertThat(THREADS.onThreads(unavailable(DownloadMethods.byId("transfer-to").orElseThrow())))
                .isEqualTo(Plan.Refusal.answered(Status.UNAVAILABLE, "transfer-to: not here"));
    }

    @Test
    void onlyAnUnnamedGeneratedFileIsLimited() {
        assertThat(LOOPS.generatedTooLarge(new Request(Op.DOWNLOAD, "transfer-to", "f", "", 1001, 0, 0, 0))).isNull();
        assertThat(LOOPS.generatedTooLarge(Request.download("transfer-to", 1000, 0, 0))).isNull();
        assertThat(LOOPS.generatedTooLarge(Request.download("transfer-to", 1001, 0, 0))).isNotNull();
    }

    /** {@code real}, unavailable here ("not here"). */
    private static SenderMethod unavailable(SenderMethod real) {
        return new SenderMethod() {
            @Override
            public String id() {
                return real.id();
            }

            @Override
            public String summary() {
                return real.summary();
            }

            @Override
            public Availability availability() {
                return Availability.unavailable("not here");
            }

            @Override
            public MethodTraits traits() {
                return real.traits();
            }

            @Override
            public FileSender newSender(TransferOptions options) throws IOException {
                return real.newSender(options);
            }

            @Override
            public LoopSender loopSender() {
                return real.loopSender();
            }
        };
    }
}
