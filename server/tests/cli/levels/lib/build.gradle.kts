plugins { id("com.android.library") }

android {
    defaultConfig {
        minSdk = libs.versions.minSdk.get().toInt()
        targetSdk = 33
    }
}
