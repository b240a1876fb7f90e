package dev.typestar.harness.android;

import android.content.Context;
import android.database.sqlite.SQLiteDatabase;
import android.database.sqlite.SQLiteOpenHelper;
import dev.typestar.agent.Callbacks;
import java.io.File;

/**
 * DroidStar's SQLiteOpenHelper object (SQLiteOpenHelperLP): a helper of database version 5 for a
 * database file that does not exist yet; reports {@code onConfigure}, {@code onCreate},
 * {@code onOpen} and {@code onUpgrade} as harness callbacks, and leaves {@code onDowngrade} to the
 * framework (which throws). {@link #openAt(int)} is DroidStar's {@code openSV}/{@code openHV}/
 * {@code openLV}: it creates the file at a version first, then opens it through the helper.
 */
public class ReportingSQLiteOpenHelper extends SQLiteOpenHelper {
    /** The helper's version, as DroidStar's. */
    public static final int VERSION = 5;
    private static final String NAME = "typestar-open-helper.db";

    private final Callbacks.Reporter reporter = Callbacks.reporter();
    private final File file;

    /** A helper of version 5 for a database that does not exist: an old file is deleted. */
    public ReportingSQLiteOpenHelper(Context context) {
        super(context, NAME, null, VERSION);
        file = context.getDatabasePath(NAME);
        SQLiteDatabase.deleteDatabase(file);
    }

    /** Creates the database file at {@code version} without the helper, then opens it with it. */
    public SQLiteDatabase openAt(int version) {
        File parent = file.getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IllegalStateException("cannot create " + parent);
        }
        SQLiteDatabase created = SQLiteDatabase.openOrCreateDatabase(file, null);
        try {
            created.setVersion(version);
        } finally {
            created.close();
        }
        return getWritableDatabase();
    }

    @Override
    public void onConfigure(SQLiteDatabase db) {
        reporter.report("onConfigure");
    }

    @Override
    public void onCreate(SQLiteDatabase db) {
        reporter.report("onCreate");
    }

    @Override
    public void onOpen(SQLiteDatabase db) {
        reporter.report("onOpen");
    }

    @Override
    public void onUpgrade(SQLiteDatabase db, int oldVersion, int newVersion) {
        reporter.report("onUpgrade");
    }
}
