package dev.typestar.harness.retrofit;

import okhttp3.ResponseBody;
import retrofit2.Call;
import retrofit2.http.GET;

/** The service learner/experiments/retrofit2.Call.toml has Retrofit implement: one page. */
public interface PageService {
    @GET("index.html")
    Call<ResponseBody> page();
}
